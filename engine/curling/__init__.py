"""Digital curling (the continuous-MDP thesis's chapter 5): a numba sheet following the
DigitalCurling3 FCV1 simulator, the rules, the thesis's players, matches, a protocol
client and a picture of the sheet.  See docs/curling.md."""
