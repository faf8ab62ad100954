/* app.euler.<problem>.<prec>.sweep: placeholder until the sweeps land. */
#include "euler.h"

clb_error eu_sweep(clb_ctx *c, eu_state *s, clb_result *res);

clb_error eu_sweep(clb_ctx *c, eu_state *s, clb_result *res)
{
    (void)s;
    (void)res;
    return clb_diag_set(&c->diag, CLB_ERR_UNSUPPORTED, "sweep not implemented yet");
}
