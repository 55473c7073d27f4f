// placeholder until the target has sources
