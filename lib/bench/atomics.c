#include "../microarch.h"
clb_error clb_atomics_run(clb_ctx *c, clb_result *res) { (void)res; return clb_diag_set(&c->diag, CLB_ERR_UNSUPPORTED, "todo"); }
clb_error clb_atomics_validate(clb_ctx *c, void *state, clb_diag *d) { (void)c; (void)state; (void)d; return CLB_OK; }
clb_error clb_sustained_run(clb_ctx *c, clb_result *res) { (void)res; return clb_diag_set(&c->diag, CLB_ERR_UNSUPPORTED, "todo"); }
clb_error clb_sustained_validate(clb_ctx *c, void *state, clb_diag *d) { (void)c; (void)state; (void)d; return CLB_OK; }
