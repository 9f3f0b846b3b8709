loadsgf games/short.sgf
1 reg_genmove purple
#? [A1]
play black E5
2 reg_genmove black
#? [A1]
