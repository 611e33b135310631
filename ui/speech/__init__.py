"""Spoken calls and the stickman's voice: the microphone, the listening, the View menu's options."""
