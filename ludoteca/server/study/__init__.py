"""Study tools of the server: the analysis board's positions and engine lines."""
