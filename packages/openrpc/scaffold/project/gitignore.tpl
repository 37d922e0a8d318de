node_modules
dist
