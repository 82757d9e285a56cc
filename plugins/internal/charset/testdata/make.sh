#!/bin/sh
# Encodes each text of source/ (UTF-8, written for this repository) with
# Debian's iconv (glibc) into the legacy charsets its language was written
# in, as <lang>.<charset>; the tests read each back by detection and by
# label. Run from this folder: sh make.sh
set -eu
enc() { iconv -f UTF-8 -t "$2" "source/$1.txt" > "$1.$3"; }
enc de WINDOWS-1252 windows-1252
enc de ISO-8859-1 iso-8859-1
enc fr ISO-8859-15 iso-8859-15
enc pl WINDOWS-1250 windows-1250
enc pl ISO-8859-2 iso-8859-2
enc ru WINDOWS-1251 windows-1251
enc ru KOI8-R koi8-r
enc el ISO-8859-7 iso-8859-7
enc ja SHIFT_JIS shift_jis
enc ja CP932 cp932
enc ja EUC-JP euc-jp
enc ja ISO-2022-JP iso-2022-jp
enc zh GBK gbk
enc zh GB18030 gb18030
enc zh-tw BIG5 big5
enc ko EUC-KR euc-kr
enc de UTF-16LE utf-16le
