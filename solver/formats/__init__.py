"""Files and pictures: ``.bpd`` puzzle files, deal and match records, text pictures.
It depends on the model only.

>>> from solver.formats import parse_record
>>> parse_record('brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35 ; v -4').int_op("v")
-4
"""

from solver.formats.bpd import Record, format_record, parse_record, read_bpd, write_bpd
from solver.formats.picture import picture
from solver.formats.records import DealRecord

__all__ = ["DealRecord", "Record", "format_record", "parse_record", "picture", "read_bpd", "write_bpd"]
