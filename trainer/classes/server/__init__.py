"""The class server's half: what runs on the instructor's machine and inside PostgreSQL (see
trainer.classes)."""
