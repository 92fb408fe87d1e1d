"""The club's week, as pure logic: a roster read from a spreadsheet, ratings across events,
a season's ladder. No SQL, no Flask: storage keeps what these compute, the web shows it."""
