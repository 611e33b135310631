"""The workstation's half of a class: joining, the queue, pushing, the instructor's reads (see
trainer.classes)."""
