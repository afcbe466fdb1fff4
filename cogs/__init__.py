"""Discord adapters: slash commands and component routing. No game state lives here."""
