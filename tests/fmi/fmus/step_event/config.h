/* A decay that asks for an event after an integrator step: value references 1 x, 2 der(x),
 * 3 t_terminate. MODEL_STEP_EVENTS makes fmi3CompletedIntegratorStep ask model_completed_step. */
#define MODEL_VARIABLES 4
#define MODEL_STATES 1
#define MODEL_INDICATORS 0
#define MODEL_TOKEN "{hdae-test-step-event}"
#define MODEL_STEP_EVENTS 1
