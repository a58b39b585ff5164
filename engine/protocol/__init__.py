"""The Gomocup/Piskvork protocol: `session` turns command lines into reply lines (no I/O);
`loop` owns stdin and stdout."""
