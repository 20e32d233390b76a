/* Expressions in x for gp_integrate: a tokenizer and recursive-descent parser that
 * build a tree (errors carry 1-based columns), and a flat postfix program the CPU
 * backend evaluates over arrays of points. The CUDA code generator walks the tree.
 * Internal: used by src/core, src/cpu, src/cuda/integrate and tests. */
#ifndef GP_CORE_EXPR_H
#define GP_CORE_EXPR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits that keep parsing, code generation and evaluation bounded. */
#define GP_EXPR_MAX_LEN 4096   /* characters of text */
#define GP_EXPR_MAX_DEPTH 128  /* nesting of parentheses, calls and operators */
#define GP_EXPR_MAX_NODES 4096

typedef enum gp_expr_kind {
  GP_EXPR_NUM,   /* a finite constant (literals, pi, e) */
  GP_EXPR_X,     /* the variable */
  GP_EXPR_NEG,   /* -a */
  GP_EXPR_ADD, GP_EXPR_SUB, GP_EXPR_MUL, GP_EXPR_DIV,
  GP_EXPR_POW,   /* a ^ b and pow(a, b) */
  GP_EXPR_SQUARE,/* a ^ 2 with a literal 2: a * a (the correctly rounded pow(a, 2)) */
  GP_EXPR_MIN, GP_EXPR_MAX,
  /* one-argument functions */
  GP_EXPR_SIN, GP_EXPR_COS, GP_EXPR_TAN, GP_EXPR_EXP, GP_EXPR_LOG, GP_EXPR_SQRT,
  GP_EXPR_ABS, GP_EXPR_FLOOR, GP_EXPR_CEIL
} gp_expr_kind;

/* Nodes live in one array; children are indices into it. */
typedef struct gp_expr_node {
  gp_expr_kind kind;
  int a, b;      /* children (-1 when absent) */
  double value;  /* GP_EXPR_NUM */
  int column;    /* where the node starts in the text (1-based) */
} gp_expr_node;

typedef enum gp_expr_opcode {
  GP_OP_X, GP_OP_CONST, GP_OP_UNARY, GP_OP_BINARY
} gp_expr_opcode;
typedef struct gp_expr_insn {
  unsigned char opcode; /* gp_expr_opcode */
  unsigned char kind;   /* gp_expr_kind of UNARY/BINARY */
  int konst;            /* index into consts for GP_OP_CONST */
} gp_expr_insn;

typedef struct gp_expr {
  gp_expr_node *nodes;
  int count, root;
  /* the postfix program: evaluated left to right on a stack of `max_stack` slots */
  gp_expr_insn *code;
  int ncode, max_stack;
  double *consts;
  int nconsts;
} gp_expr;

/* Parses `text` into *out. On failure returns -1 and writes a message such as
 * "unexpected ')' at column 7" or "unknown name 'foo' at column 3 (known: ...)" into
 * err; *out is then empty (gp_expr_free is still safe). Returns 0 on success. */
int gp_expr_parse(const char *text, gp_expr *out, char *err, size_t err_len);
void gp_expr_free(gp_expr *e);

/* The name of a function node ("sin", "pow", ...), or NULL for other kinds. */
const char *gp_expr_func_name(gp_expr_kind k);

/* Evaluates the program at one point (slow path, for tests and endpoints). */
double gp_expr_eval(const gp_expr *e, double x);
float gp_expr_eval_f(const gp_expr *e, float x);
/* Evaluates at count points: out[i] = f(x[i]). `stack` has max_stack * count slots.
 * The same operations, in the same precision and order, as gp_expr_eval. */
void gp_expr_eval_many(const gp_expr *e, const double *x, double *out, size_t count,
                       double *stack);
void gp_expr_eval_many_f(const gp_expr *e, const float *x, float *out, size_t count,
                         float *stack);

/* Writes the tree as a fully parenthesised expression (for messages and tests). */
int gp_expr_print(const gp_expr *e, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
