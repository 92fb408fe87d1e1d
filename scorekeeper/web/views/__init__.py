"""The pages, a blueprint a module: home, start/join/import, play (the record link), the view link, printing, the director, the wall screen, house rules."""
