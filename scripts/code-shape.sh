#!/bin/sh
# The shape of src/: the largest files, the longest functions, includes up the layers
# (scripts/layers.py) and the include circles (scripts/circles.py). A function is counted from its opening line at column 0 to the
# `}` at column 0 that closes it.   scripts/code-shape.sh [BUILD] [HOW_MANY]
build=${1:-build}; n=${2:-8}
echo "largest files:"
wc -l src/*/*.c src/*/*.h | grep -v ' total$' | sort -rn | head -n "$n"
echo "longest functions:"
awk 'FNR == 1 { start = 0 }
     /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !/^(typedef|struct|enum|union|#)/ { start = FNR; name = $0 }
     /^}/ && start { printf "%6d %s:%d %s\n", FNR - start + 1, FILENAME, start, substr(name, 1, 60); start = 0 }' \
  src/*/*.c | sort -rn | head -n "$n"
/usr/bin/python3 scripts/layers.py src
layers=$?
/usr/bin/python3 scripts/circles.py "$build" && exit $layers
