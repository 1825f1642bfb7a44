"""Analysis: exact figures from the game's Markov chain (`robinson.analysis.exact`), policies
shared with the simulator and the bots (`robinson.analysis.policy`)."""
