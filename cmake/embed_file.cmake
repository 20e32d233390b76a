# cmake -DIN=FILE -DOUT=HEADER -DNAME=IDENT -P embed_file.cmake: writes HEADER holding
# FILE's bytes as `static const unsigned char IDENT[]` (8-byte aligned) and its length as
# `static const size_t IDENT_size`; a build-time step (the configure-time embeds in
# CMakeLists.txt read source files, this one a build output).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR n "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
file(WRITE "${OUT}.tmp" "/* generated from ${IN} by cmake/embed_file.cmake */\n"
     "#include <stddef.h>\n"
     "static const unsigned char ${NAME}[] __attribute__((aligned(8))) = {${hex}};\n"
     "static const size_t ${NAME}_size = ${n};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
