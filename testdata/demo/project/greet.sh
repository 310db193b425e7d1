#!/bin/sh
# greet.sh NAME: print a greeting for NAME.
echo "Hello, ${1:-world}!"
