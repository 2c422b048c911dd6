"""Layer 2, the game in words: printed names (names), action notation (notation), the question a
decision asks and its menu (decisions), a player's answer read or refused (answers), what a
move did (effects, narration), positions as text (display), vehicle compartments (loads) and
search results a player reads (reading)."""
