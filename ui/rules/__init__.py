"""The Rules screen: the regulation text, the engine's readings, the paytables and house edges."""
