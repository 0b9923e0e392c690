"""鄉射禮 reconstruction: text → units → hall & placements → timeline → meshes → views."""
