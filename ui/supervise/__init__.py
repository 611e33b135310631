"""The Supervise screen: a round dealt with the dealer's mistakes in it, watched and flagged."""
