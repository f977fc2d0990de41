"""The song-of-blades referee: the engine that holds the table, offers each player the choices the rules leave
them, asks rules/ for the odds of every roll and applies what was drawn. Each module drives the rules/ module of
its name (melee, disengaging, quality, turns) or covers a part the rules leave to the table (battlefield, moves,
recoil, setup); state, steps and options are the game's values, machine the step table, game the Game.
"""
