"""The CodinGame Paper Soccer protocol: fepaper as a bot on stdin/stdout."""
