"""Start the nakade GTP engine: ``python gtp_main.py [options]`` (``--help`` lists them)."""
from engine.gtp import main
main()
