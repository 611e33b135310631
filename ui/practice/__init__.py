"""The practice table: the Practice and Scenarios screens, the practice screen that works a round
(the table, the action bar, feedback) and the dialogs a dealer action needs."""
