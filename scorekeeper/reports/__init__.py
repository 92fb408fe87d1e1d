"""What is printed or written out: sheets, charts, QR codes, text tables and the one WeasyPrint import. It renders what it is given: no database, no request."""
