"""Writes the test notebooks with nbformat (Debian's python3-nbformat 5.5),
its v4 API and its writer, as Jupyter saves them. Run from this folder:
/usr/bin/python3 make.py"""
import base64
import nbformat
from nbformat.v4 import (new_notebook, new_markdown_cell, new_code_cell, new_raw_cell, new_output)

png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 64).decode()

nb = new_notebook(metadata={
    "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
    "language_info": {"name": "python", "version": "3.11.2"},
})
nb.cells = [
    new_markdown_cell("# Sales analysis\n\nData from the [open data portal](https://data.example.org/sales) "
                      "and [its notes][notes].\n\n[notes]: https://data.example.org/notes"),
    new_code_cell("import pandas as pd\ndf = pd.read_csv('sales.csv')\ndf.head(2)", execution_count=1, outputs=[
        new_output("execute_result", execution_count=1, data={
            "text/plain": "   region  sales\n0   north    120\n1   south     98",
            "text/html": "<table><tr><td>north</td></tr></table>"}),
    ]),
    new_code_cell("for i in range(3):\n    print(i)", execution_count=2, outputs=[
        new_output("stream", name="stdout", text="0\n1\n2\n")]),
    new_code_cell("df.plot()", execution_count=3, outputs=[
        new_output("display_data", data={"image/png": png, "text/plain": "<Figure size 640x480 with 1 Axes>"})]),
    new_code_cell("print('x' * 5000)", execution_count=4, outputs=[
        new_output("stream", name="stdout", text="x" * 5000 + "\n")]),
    new_code_cell("1/0", execution_count=5, outputs=[
        new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                   traceback=["\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"])]),
    new_markdown_cell("Code in markdown: ```inline``` and a fence:\n\n```\nnot run\n```"),
    new_raw_cell("raw text, as written"),
]
nbformat.validate(nb)
nbformat.write(nb, "sales.ipynb")

r = new_notebook(metadata={"kernelspec": {"name": "ir", "display_name": "R", "language": "R"},
                           "language_info": {"name": "R"}})
r.cells = [new_markdown_cell("## Model"), new_code_cell("fit <- lm(y ~ x, data = d)\nsummary(fit)", outputs=[
    new_output("stream", name="stdout", text="Call:\nlm(formula = y ~ x, data = d)\n")])]
nbformat.validate(r)
nbformat.write(r, "r-kernel.ipynb")
