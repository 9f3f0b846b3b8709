# A hand-made regression script: every kind of line the loader meets.
loadsgf games/short.sgf 3
10 reg_genmove black
#? [G3|G7]

# anything but the centre point
20 reg_genmove white
#? [!E5|D4]*

play white G7
30 reg_genmove black
#? [C3]
undo

# GNU Go internals, skipped and counted
40 owl_defend C3
#? [1 G3]
50 dragon_status C3
#? [alive]
55 restricted_genmove black D6 C6
#? [C6]

komi 0.5
60 reg_genmove white
#? [PASS]

# no answer line follows this one
70 reg_genmove black

loadsgf games/missing.sgf
80 reg_genmove black
#? [A1]

boardsize 1
clear_board
90 reg_genmove black
#? [PASS]

boardsize 5
100 reg_genmove black
#? [Z9]

reg_genmove black
#? [C3]
