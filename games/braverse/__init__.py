"""CookieRun: Braverse (unofficial fan implementation): two-player card battles."""
