"""The Exam screen: sitting an exam, its result and printed report, certification, and the
instructor's exam forms."""
