"""What several test modules share (fakes, file builders, a schema check): imported as `helpers.<module>`, never
from another test module."""
