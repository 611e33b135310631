"""The shell around the screens: starting the app, the main window and its menus, the settings and
themes, who is training, the progress file's check and imports, and the widgets screens share."""
