"""What the tests and the benchmarks share, and the bot never imports: an offline Discord
(``devtools.offline_discord``) and a throwaway PostgreSQL server (``devtools.postgres_server``)."""
