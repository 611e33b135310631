"""The study of spoken calls in noise: scripts run by hand (README.md), and the lab levers the
benchmark tests/benchmarks/speech_accuracy.py imports (denoise, prefix, favour)."""
