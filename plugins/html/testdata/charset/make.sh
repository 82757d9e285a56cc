#!/bin/sh
# Writes, from the texts plugins/internal/charset's tests use, one small
# page per language in UTF-8 (<lang>.utf-8.html), and encodes it with
# Debian's iconv (glibc) into a legacy charset its language was written in
# (<lang>.<charset>.html; UTF-16 with its byte-order mark). No page
# declares its charset: the tests add the label or <meta> they need. Run
# from this folder: sh make.sh
set -eu
src=../../../internal/charset/testdata/source
page() {
	printf '<!DOCTYPE html><html><head><title>%s</title></head><body><article><h1>%s</h1>\n' "$2" "$2"
	sed 's/^/<p>/;s/$/<\/p>/' "$src/$1.txt"
	printf '</article></body></html>\n'
}
enc() { iconv -f UTF-8 -t "$2" "$1.utf-8.html" > "$1.$3.html"; }
page de 'Die Stadt' > de.utf-8.html
page ja '町' > ja.utf-8.html
page ko '마을' > ko.utf-8.html
page zh '小镇' > zh.utf-8.html
enc de WINDOWS-1252 windows-1252
enc de UTF-16 utf-16
enc ja SHIFT_JIS shift_jis
enc ko EUC-KR euc-kr
enc zh GB18030 gb18030
