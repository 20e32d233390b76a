/* Expressions in x: tokenizer + recursive-descent parser into a node array (errors
 * say which column), a postfix compiler, and the CPU evaluators (F64 and F32) that
 * run the postfix program over arrays of points, so nothing is re-parsed per point. */
#include "core/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------------ */
static const struct {
  const char *name;
  gp_expr_kind kind;
  int args;
} funcs[] = {
    {"sin", GP_EXPR_SIN, 1},     {"cos", GP_EXPR_COS, 1},   {"tan", GP_EXPR_TAN, 1},
    {"exp", GP_EXPR_EXP, 1},     {"log", GP_EXPR_LOG, 1},   {"sqrt", GP_EXPR_SQRT, 1},
    {"abs", GP_EXPR_ABS, 1},     {"floor", GP_EXPR_FLOOR, 1}, {"ceil", GP_EXPR_CEIL, 1},
    {"pow", GP_EXPR_POW, 2},     {"min", GP_EXPR_MIN, 2},   {"max", GP_EXPR_MAX, 2},
};
#define NFUNCS (int)(sizeof funcs / sizeof funcs[0])
#define KNOWN_NAMES                                                              \
  "known: x, pi, e, sin, cos, tan, exp, log, sqrt, abs, pow, min, max, floor, ceil"

const char *gp_expr_func_name(gp_expr_kind k) {
  for (int i = 0; i < NFUNCS; i++)
    if (funcs[i].kind == k) return funcs[i].name;
  return NULL;
}

/* ---- tokenizer ---------------------------------------------------------------- */
typedef enum { T_END, T_NUM, T_IDENT, T_OP } tok_kind;
typedef struct {
  tok_kind kind;
  int col;          /* 1-based */
  size_t start, len;
  char op;          /* T_OP: one of + - * / ^ ( ) , */
  double num;
} token;

typedef struct {
  const char *s;
  size_t len, pos;
  token tok;        /* the current (lookahead) token */
  gp_expr *e;
  int depth;
  char *err;
  size_t err_len;
  int failed;
} parser;

static int fail(parser *p, const char *fmt, ...) {
  if (!p->failed) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->err_len, fmt, ap);
    va_end(ap);
    p->failed = 1;
  }
  return -1;
}

/* Describes a token for "unexpected ..." messages: the text, or "end of input". */
static void describe(const parser *p, const token *t, char *buf, size_t n) {
  if (t->kind == T_END) {
    snprintf(buf, n, "end of input");
    return;
  }
  size_t len = t->len > 32 ? 32 : t->len;
  snprintf(buf, n, "'%.*s%s'", (int)len, p->s + t->start, t->len > 32 ? "..." : "");
}

static int next(parser *p) {
  const char *s = p->s;
  while (p->pos < p->len && (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' ||
                             s[p->pos] == '\r'))
    p->pos++;
  token *t = &p->tok;
  t->start = p->pos;
  t->col = (int)p->pos + 1;
  t->len = 0;
  if (p->pos >= p->len) {
    t->kind = T_END;
    return 0;
  }
  unsigned char c = (unsigned char)s[p->pos];
  if (isdigit(c) || (c == '.' && p->pos + 1 < p->len && isdigit((unsigned char)s[p->pos + 1]))) {
    /* digits [. digits] [(e|E) [+-] digits]; an 'e' not followed by digits ends the number */
    size_t q = p->pos;
    while (q < p->len && isdigit((unsigned char)s[q])) q++;
    if (q < p->len && s[q] == '.') {
      q++;
      while (q < p->len && isdigit((unsigned char)s[q])) q++;
    }
    if (q < p->len && (s[q] == 'e' || s[q] == 'E')) {
      size_t r = q + 1;
      if (r < p->len && (s[r] == '+' || s[r] == '-')) r++;
      if (r < p->len && isdigit((unsigned char)s[r])) {
        while (r < p->len && isdigit((unsigned char)s[r])) r++;
        q = r;
      }
    }
    char buf[128];
    size_t n = q - p->pos;
    if (n >= sizeof buf) return fail(p, "number too long at column %d", t->col);
    memcpy(buf, s + p->pos, n);
    buf[n] = '\0';
    t->num = strtod(buf, NULL);
    if (!isfinite(t->num))
      return fail(p, "number '%s' at column %d is out of range (larger than %g)", buf, t->col,
                  1.7976931348623157e308);
    t->kind = T_NUM;
    t->len = n;
    p->pos = q;
    return 0;
  }
  if (isalpha(c) || c == '_') {
    size_t q = p->pos;
    while (q < p->len && (isalnum((unsigned char)s[q]) || s[q] == '_')) q++;
    t->kind = T_IDENT;
    t->len = q - p->pos;
    p->pos = q;
    return 0;
  }
  if (strchr("+-*/^(),", (int)c) && c != '\0') {
    t->kind = T_OP;
    t->op = (char)c;
    t->len = 1;
    p->pos++;
    return 0;
  }
  if (isprint(c))
    return fail(p, "unexpected character '%c' at column %d (an expression uses numbers, x, "
                   "pi, e, functions, + - * / ^ and parentheses)", (char)c, t->col);
  return fail(p, "unexpected byte 0x%02x at column %d", c, t->col);
}

static int unexpected(parser *p) {
  char what[64];
  describe(p, &p->tok, what, sizeof what);
  if (p->tok.kind == T_END) return fail(p, "unexpected end of input at column %d", p->tok.col);
  return fail(p, "unexpected %s at column %d", what, p->tok.col);
}

static int is_op(const parser *p, char op) { return p->tok.kind == T_OP && p->tok.op == op; }

static int add_node(parser *p, gp_expr_kind kind, int a, int b, double v, int col) {
  gp_expr *e = p->e;
  if (e->count >= GP_EXPR_MAX_NODES)
    return fail(p, "expression too large (more than %d nodes)", GP_EXPR_MAX_NODES);
  e->nodes[e->count] = (gp_expr_node){kind, a, b, v, col};
  return e->count++;
}

static int parse_expr(parser *p);
static int parse_unary(parser *p);

static int enter(parser *p) {
  if (++p->depth > GP_EXPR_MAX_DEPTH)
    return fail(p, "expression nested too deeply at column %d (more than %d levels)",
                p->tok.col, GP_EXPR_MAX_DEPTH);
  return 0;
}

static int expect(parser *p, char op) {
  if (!is_op(p, op)) {
    char what[64];
    describe(p, &p->tok, what, sizeof what);
    return fail(p, "expected '%c' but found %s at column %d", op, what, p->tok.col);
  }
  return next(p);
}

/* primary := NUMBER | x | pi | e | NAME '(' expr [',' expr] ')' | '(' expr ')' */
static int parse_primary(parser *p) {
  token t = p->tok;
  if (t.kind == T_NUM) {
    if (next(p)) return -1;
    return add_node(p, GP_EXPR_NUM, -1, -1, t.num, t.col);
  }
  if (is_op(p, '(')) {
    if (next(p)) return -1;
    int r = parse_expr(p);
    if (r < 0) return -1;
    if (expect(p, ')')) return -1;
    return r;
  }
  if (t.kind == T_IDENT) {
    const char *name = p->s + t.start;
    size_t len = t.len;
    if (next(p)) return -1;
#define NAME_IS(lit) (len == sizeof(lit) - 1 && memcmp(name, lit, len) == 0)
    if (NAME_IS("x")) return add_node(p, GP_EXPR_X, -1, -1, 0.0, t.col);
    if (NAME_IS("pi")) return add_node(p, GP_EXPR_NUM, -1, -1, 3.14159265358979323846, t.col);
    if (NAME_IS("e")) return add_node(p, GP_EXPR_NUM, -1, -1, 2.71828182845904523536, t.col);
    for (int f = 0; f < NFUNCS; f++) {
      if (strlen(funcs[f].name) != len || memcmp(name, funcs[f].name, len) != 0) continue;
      if (!is_op(p, '(')) {
        char what[64];
        describe(p, &p->tok, what, sizeof what);
        return fail(p, "function '%s' at column %d needs '(' after it, found %s at column %d",
                    funcs[f].name, t.col, what, p->tok.col);
      }
      if (next(p)) return -1;
      int a = parse_expr(p), b = -1;
      if (a < 0) return -1;
      if (funcs[f].args == 2) {
        if (!is_op(p, ',')) {
          char what[64];
          describe(p, &p->tok, what, sizeof what);
          return fail(p, "function '%s' at column %d takes 2 arguments: expected ',' but found "
                         "%s at column %d", funcs[f].name, t.col, what, p->tok.col);
        }
        if (next(p)) return -1;
        b = parse_expr(p);
        if (b < 0) return -1;
      }
      if (is_op(p, ',')) {
        return fail(p, "function '%s' at column %d takes %d argument%s: unexpected ',' at "
                       "column %d", funcs[f].name, t.col, funcs[f].args,
                    funcs[f].args == 1 ? "" : "s", p->tok.col);
      }
      if (expect(p, ')')) return -1;
      return add_node(p, funcs[f].kind, a, b, 0.0, t.col);
    }
#undef NAME_IS
    size_t shown = len > 32 ? 32 : len;
    return fail(p, "unknown name '%.*s%s' at column %d (" KNOWN_NAMES ")", (int)shown, name,
                len > 32 ? "..." : "", t.col);
  }
  return unexpected(p);
}

/* power := primary ['^' unary]   (right-associative; -x^2 is -(x^2), 2^-x is 2^(-x)) */
static int parse_power(parser *p) {
  if (enter(p)) return -1;
  int base = parse_primary(p);
  if (base < 0) return -1;
  if (is_op(p, '^')) {
    int col = p->tok.col;
    if (next(p)) return -1;
    int ex = parse_unary(p);
    if (ex < 0) return -1;
    const gp_expr_node *en = &p->e->nodes[ex];
    if (en->kind == GP_EXPR_NUM && en->value == 2.0)
      base = add_node(p, GP_EXPR_SQUARE, base, -1, 0.0, col);
    else
      base = add_node(p, GP_EXPR_POW, base, ex, 0.0, col);
  }
  p->depth--;
  return base;
}

/* unary := ('-' | '+') unary | power */
static int parse_unary(parser *p) {
  if (enter(p)) return -1;
  int r;
  if (is_op(p, '-') || is_op(p, '+')) {
    int neg = p->tok.op == '-', col = p->tok.col;
    if (next(p)) return -1;
    r = parse_unary(p);
    if (r < 0) return -1;
    if (neg) r = add_node(p, GP_EXPR_NEG, r, -1, 0.0, col);
  } else {
    r = parse_power(p);
  }
  p->depth--;
  return r;
}

/* term := unary (('*' | '/') unary)* */
static int parse_term(parser *p) {
  int l = parse_unary(p);
  while (l >= 0 && (is_op(p, '*') || is_op(p, '/'))) {
    gp_expr_kind k = p->tok.op == '*' ? GP_EXPR_MUL : GP_EXPR_DIV;
    int col = p->tok.col;
    if (next(p)) return -1;
    int r = parse_unary(p);
    if (r < 0) return -1;
    l = add_node(p, k, l, r, 0.0, col);
  }
  return l;
}

/* expr := term (('+' | '-') term)* */
static int parse_expr(parser *p) {
  if (enter(p)) return -1;
  int l = parse_term(p);
  while (l >= 0 && (is_op(p, '+') || is_op(p, '-'))) {
    gp_expr_kind k = p->tok.op == '+' ? GP_EXPR_ADD : GP_EXPR_SUB;
    int col = p->tok.col;
    if (next(p)) return -1;
    int r = parse_term(p);
    if (r < 0) return -1;
    l = add_node(p, k, l, r, 0.0, col);
  }
  p->depth--;
  return l;
}

/* ---- postfix compiler ------------------------------------------------------------ */
static int is_binary(gp_expr_kind k) {
  return k == GP_EXPR_ADD || k == GP_EXPR_SUB || k == GP_EXPR_MUL || k == GP_EXPR_DIV ||
         k == GP_EXPR_POW || k == GP_EXPR_MIN || k == GP_EXPR_MAX;
}

/* Emits node i's postfix code; returns the stack depth it needs. Depth is bounded by
 * GP_EXPR_MAX_DEPTH, so the recursion is too. */
static int emit(gp_expr *e, int i) {
  const gp_expr_node *n = &e->nodes[i];
  gp_expr_insn *in;
  int need;
  switch (n->kind) {
  case GP_EXPR_NUM:
    e->consts[e->nconsts] = n->value;
    in = &e->code[e->ncode++];
    *in = (gp_expr_insn){GP_OP_CONST, (unsigned char)n->kind, e->nconsts++};
    return 1;
  case GP_EXPR_X:
    in = &e->code[e->ncode++];
    *in = (gp_expr_insn){GP_OP_X, (unsigned char)n->kind, 0};
    return 1;
  default:
    break;
  }
  if (is_binary(n->kind)) {
    int da = emit(e, n->a);
    int db = emit(e, n->b) + 1;
    need = da > db ? da : db;
    in = &e->code[e->ncode++];
    *in = (gp_expr_insn){GP_OP_BINARY, (unsigned char)n->kind, 0};
    return need;
  }
  need = emit(e, n->a);
  in = &e->code[e->ncode++];
  *in = (gp_expr_insn){GP_OP_UNARY, (unsigned char)n->kind, 0};
  return need;
}

void gp_expr_free(gp_expr *e) {
  if (!e) return;
  free(e->nodes);
  free(e->code);
  free(e->consts);
  memset(e, 0, sizeof *e);
}

int gp_expr_parse(const char *text, gp_expr *out, char *err, size_t err_len) {
  char dummy[8];
  if (!err || err_len == 0) err = dummy, err_len = sizeof dummy;
  err[0] = '\0';
  memset(out, 0, sizeof *out);
  out->root = -1;
  if (!text) {
    snprintf(err, err_len, "the expression is NULL");
    return -1;
  }
  size_t len = strlen(text);
  if (len > GP_EXPR_MAX_LEN) {
    snprintf(err, err_len, "expression too long (%zu characters; at most %d)", len,
             GP_EXPR_MAX_LEN);
    return -1;
  }
  out->nodes = (gp_expr_node *)malloc(sizeof(gp_expr_node) * (len + 1));
  if (!out->nodes) {
    snprintf(err, err_len, "out of memory parsing the expression");
    return -1;
  }
  parser p = {text, len, 0, {T_END, 1, 0, 0, 0, 0.0}, out, 0, err, err_len, 0};
  int root = -1;
  if (next(&p) == 0) {
    if (p.tok.kind == T_END) {
      fail(&p, "empty expression: write one in x, e.g. 'x^2' or 'sin(x)'");
    } else {
      root = parse_expr(&p);
      if (root >= 0 && p.tok.kind != T_END) unexpected(&p);
    }
  }
  if (p.failed || root < 0) {
    if (!p.failed) snprintf(err, err_len, "cannot parse the expression");
    gp_expr_free(out);
    out->root = -1;
    return -1;
  }
  out->root = root;
  out->code = (gp_expr_insn *)malloc(sizeof(gp_expr_insn) * (size_t)out->count);
  out->consts = (double *)malloc(sizeof(double) * (size_t)out->count);
  if (!out->code || !out->consts) {
    snprintf(err, err_len, "out of memory compiling the expression");
    gp_expr_free(out);
    out->root = -1;
    return -1;
  }
  out->max_stack = emit(out, root);
  return 0;
}

/* ---- printing --------------------------------------------------------------------- */
typedef struct { char *buf; size_t len, pos; } sbuf;
static void sput(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = b->pos < b->len ? b->len - b->pos : 0;
  int n = vsnprintf(room ? b->buf + b->pos : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) b->pos += (size_t)n;
}
static void print_node(const gp_expr *e, int i, sbuf *b) {
  const gp_expr_node *n = &e->nodes[i];
  static const char *binop[] = {[GP_EXPR_ADD] = "+", [GP_EXPR_SUB] = "-",
                                [GP_EXPR_MUL] = "*", [GP_EXPR_DIV] = "/",
                                [GP_EXPR_POW] = "^"};
  switch (n->kind) {
  case GP_EXPR_NUM: sput(b, "%.17g", n->value); return;
  case GP_EXPR_X: sput(b, "x"); return;
  case GP_EXPR_NEG: sput(b, "(-"); print_node(e, n->a, b); sput(b, ")"); return;
  case GP_EXPR_SQUARE: sput(b, "("); print_node(e, n->a, b); sput(b, "^2)"); return;
  case GP_EXPR_ADD: case GP_EXPR_SUB: case GP_EXPR_MUL: case GP_EXPR_DIV: case GP_EXPR_POW:
    sput(b, "(");
    print_node(e, n->a, b);
    sput(b, "%s", binop[n->kind]);
    print_node(e, n->b, b);
    sput(b, ")");
    return;
  default:
    sput(b, "%s(", gp_expr_func_name(n->kind));
    print_node(e, n->a, b);
    if (n->b >= 0) {
      sput(b, ",");
      print_node(e, n->b, b);
    }
    sput(b, ")");
  }
}
int gp_expr_print(const gp_expr *e, char *buf, size_t len) {
  sbuf b = {buf, len, 0};
  if (len) buf[0] = '\0';
  if (!e || e->root < 0) return -1;
  print_node(e, e->root, &b);
  return b.pos < len ? 0 : -1;
}

/* ---- evaluation ------------------------------------------------------------------- *
 * One template, stamped for double and float by macro: each instruction runs over the
 * whole array of points before the next, so dispatch costs once per op per batch. */
#define GP_EXPR_EVAL_MANY(NAME, T, SFX)                                           \
  void NAME(const gp_expr *e, const T *x, T *out, size_t count, T *stack) {       \
    int sp = 0; /* number of slots in use */                                      \
    for (int pc = 0; pc < e->ncode; pc++) {                                       \
      const gp_expr_insn in = e->code[pc];                                        \
      T *top = stack + (size_t)sp * count;                                        \
      T *a = top - count; /* top of stack before this insn */                     \
      switch (in.opcode) {                                                        \
      case GP_OP_X:                                                               \
        memcpy(top, x, count * sizeof(T));                                        \
        sp++;                                                                     \
        break;                                                                    \
      case GP_OP_CONST: {                                                         \
        const T c = (T)e->consts[in.konst];                                       \
        for (size_t i = 0; i < count; i++) top[i] = c;                            \
        sp++;                                                                     \
        break;                                                                    \
      }                                                                           \
      case GP_OP_UNARY:                                                           \
        switch ((gp_expr_kind)in.kind) {                                          \
        case GP_EXPR_NEG: for (size_t i = 0; i < count; i++) a[i] = -a[i]; break; \
        case GP_EXPR_SQUARE: for (size_t i = 0; i < count; i++) a[i] = a[i] * a[i]; break; \
        case GP_EXPR_SIN: for (size_t i = 0; i < count; i++) a[i] = sin##SFX(a[i]); break; \
        case GP_EXPR_COS: for (size_t i = 0; i < count; i++) a[i] = cos##SFX(a[i]); break; \
        case GP_EXPR_TAN: for (size_t i = 0; i < count; i++) a[i] = tan##SFX(a[i]); break; \
        case GP_EXPR_EXP: for (size_t i = 0; i < count; i++) a[i] = exp##SFX(a[i]); break; \
        case GP_EXPR_LOG: for (size_t i = 0; i < count; i++) a[i] = log##SFX(a[i]); break; \
        case GP_EXPR_SQRT: for (size_t i = 0; i < count; i++) a[i] = sqrt##SFX(a[i]); break; \
        case GP_EXPR_ABS: for (size_t i = 0; i < count; i++) a[i] = fabs##SFX(a[i]); break; \
        case GP_EXPR_FLOOR: for (size_t i = 0; i < count; i++) a[i] = floor##SFX(a[i]); break; \
        case GP_EXPR_CEIL: for (size_t i = 0; i < count; i++) a[i] = ceil##SFX(a[i]); break; \
        default: break;                                                           \
        }                                                                         \
        break;                                                                    \
      case GP_OP_BINARY: {                                                        \
        T *l = a - count; /* left operand; result goes there */                   \
        switch ((gp_expr_kind)in.kind) {                                          \
        case GP_EXPR_ADD: for (size_t i = 0; i < count; i++) l[i] = l[i] + a[i]; break; \
        case GP_EXPR_SUB: for (size_t i = 0; i < count; i++) l[i] = l[i] - a[i]; break; \
        case GP_EXPR_MUL: for (size_t i = 0; i < count; i++) l[i] = l[i] * a[i]; break; \
        case GP_EXPR_DIV: for (size_t i = 0; i < count; i++) l[i] = l[i] / a[i]; break; \
        case GP_EXPR_POW: for (size_t i = 0; i < count; i++) l[i] = pow##SFX(l[i], a[i]); break; \
        case GP_EXPR_MIN: for (size_t i = 0; i < count; i++) l[i] = fmin##SFX(l[i], a[i]); break; \
        case GP_EXPR_MAX: for (size_t i = 0; i < count; i++) l[i] = fmax##SFX(l[i], a[i]); break; \
        default: break;                                                           \
        }                                                                         \
        sp--;                                                                     \
        break;                                                                    \
      }                                                                           \
      }                                                                           \
    }                                                                             \
    memcpy(out, stack, count * sizeof(T));                                        \
  }

GP_EXPR_EVAL_MANY(gp_expr_eval_many, double, )
GP_EXPR_EVAL_MANY(gp_expr_eval_many_f, float, f)

double gp_expr_eval(const gp_expr *e, double x) {
  double stack[64], out;
  if (e->max_stack <= 64) {
    gp_expr_eval_many(e, &x, &out, 1, stack);
    return out;
  }
  double *s = (double *)malloc(sizeof(double) * (size_t)e->max_stack);
  if (!s) return NAN;
  gp_expr_eval_many(e, &x, &out, 1, s);
  free(s);
  return out;
}

float gp_expr_eval_f(const gp_expr *e, float x) {
  float stack[64], out;
  if (e->max_stack <= 64) {
    gp_expr_eval_many_f(e, &x, &out, 1, stack);
    return out;
  }
  float *s = (float *)malloc(sizeof(float) * (size_t)e->max_stack);
  if (!s) return NAN;
  gp_expr_eval_many_f(e, &x, &out, 1, s);
  free(s);
  return out;
}
