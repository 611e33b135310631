"""The Progress screen: a trainee's accuracy and speed over time and the weakest skills, in charts."""
