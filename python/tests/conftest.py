import os
import sys

# The models used by several tests live beside them.
sys.path.insert(0, os.path.dirname(__file__))
