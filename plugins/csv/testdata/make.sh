#!/bin/sh
# Makes the test documents from what is written here, with real tools:
# Debian's iconv for the Shift_JIS (cp932) file, Python's csv module for the
# quoted, Excel-dialect and tab-separated ones. Run from this folder.
set -eu
# Windows' Japanese code page, as Excel saves "CSV" there: ① and 髙 exist
# only in cp932, not in plain Shift_JIS.
iconv -f UTF-8 -t CP932 stations.utf8.csv > stations-cp932.csv
python3 - <<'PY'
import csv
rows = [
    ["id", "name", "comment", "price"],
    ["1", "Widget, large", 'He said "fine"', "9.99"],
    ["2", "Pipe | fitting", "line one\nline two", "0.50"],
    ["3", "Back\\slash", "", "12"],
    ["4", "  padded  ", "tab\there", "-1"],
]
with open("quoted.csv", "w", newline="") as f:
    csv.writer(f).writerows(rows)
# Excel's CSV in much of Europe: UTF-8 with a BOM, semicolons, decimal commas.
with open("excel-semicolon.csv", "w", newline="", encoding="utf-8-sig") as f:
    csv.writer(f, delimiter=";", quoting=csv.QUOTE_MINIMAL).writerows([
        ["Stadt", "Einwohner", "Fläche (km²)"],
        ["München", "1.512.491", "310,7"],
        ["Köln", "1.084.831", "405,0"],
        ["Düsseldorf", "629.047", "217,4"],
    ])
with open("genes.tsv", "w", newline="") as f:
    csv.writer(f, delimiter="\t", lineterminator="\n").writerows([
        ["gene", "chromosome", "start", "end", "description"],
        ["BRCA1", "17", "43044295", "43125483", "BRCA1 DNA repair associated"],
        ["TP53", "17", "7661779", "7687550", "tumor protein p53"],
        ["CFTR", "7", "117480025", "117668665", "CF transmembrane conductance regulator"],
    ])
PY
