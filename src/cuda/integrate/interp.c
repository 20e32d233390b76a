/* gp_interp_build: the expression's postfix program (core/expr.h) as the interpreted
 * kernel's parameter (interp.h). */
#include "cuda/integrate/interp.h"

#include <string.h>

static int op_of(const gp_expr_insn *in) {
  switch (in->opcode) {
  case GP_OP_X: return GP_IOP_X;
  case GP_OP_CONST: return GP_IOP_CONST;
  default: break;
  }
  switch ((gp_expr_kind)in->kind) {
  case GP_EXPR_NEG: return GP_IOP_NEG;
  case GP_EXPR_SQUARE: return GP_IOP_SQUARE;
  case GP_EXPR_SIN: return GP_IOP_SIN;
  case GP_EXPR_COS: return GP_IOP_COS;
  case GP_EXPR_TAN: return GP_IOP_TAN;
  case GP_EXPR_EXP: return GP_IOP_EXP;
  case GP_EXPR_LOG: return GP_IOP_LOG;
  case GP_EXPR_SQRT: return GP_IOP_SQRT;
  case GP_EXPR_ABS: return GP_IOP_ABS;
  case GP_EXPR_FLOOR: return GP_IOP_FLOOR;
  case GP_EXPR_CEIL: return GP_IOP_CEIL;
  case GP_EXPR_ADD: return GP_IOP_ADD;
  case GP_EXPR_SUB: return GP_IOP_SUB;
  case GP_EXPR_MUL: return GP_IOP_MUL;
  case GP_EXPR_DIV: return GP_IOP_DIV;
  case GP_EXPR_POW: return GP_IOP_POW;
  case GP_EXPR_MIN: return GP_IOP_MIN;
  case GP_EXPR_MAX: return GP_IOP_MAX;
  default: return -1;
  }
}

int gp_interp_build(const gp_expr *e, gp_interp_prog *p) {
  memset(p, 0, sizeof *p);
  if (e->ncode < 1 || e->ncode > GP_INTERP_MAX_CODE || e->nconsts > GP_INTERP_MAX_CONSTS ||
      e->max_stack > GP_INTERP_MAX_STACK)
    return -1;
  for (int i = 0; i < e->nconsts; i++) p->k[i] = e->consts[i];
  for (int i = 0; i < e->ncode; i++) {
    const int op = op_of(&e->code[i]);
    if (op < 0) return -1;
    p->op[i] = (uint8_t)op;
    p->arg[i] = op == GP_IOP_CONST ? (uint8_t)e->code[i].konst : 0;
  }
  p->ncode = (uint32_t)e->ncode;
  return 0;
}
