"""The lab's tests: the harness, the scripts and the training, run from the repository's root."""
