"""Discord front: slash commands, components and renderers mapping Discord onto game sessions."""
