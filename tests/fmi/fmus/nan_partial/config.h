/* A decay whose directional derivative fails at t = 0.5 (faulty/model.c): value references
 * 1 x, 2 der(x). */
#define MODEL_VARIABLES 3
#define MODEL_STATES 1
#define MODEL_INDICATORS 0
#define MODEL_TOKEN "{hdae-test-nan_partial}"
#define MODEL_PARTIALS
