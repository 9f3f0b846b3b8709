"""``python -m engine.pbrain``: the Gomocup brain on stdin/stdout."""
from engine.pbrain import main

main()
