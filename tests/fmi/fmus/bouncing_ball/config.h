/* A ball dropped from h = 1 m: value references 1 h, 2 der(h), 3 v, 4 der(v), 5 g, 6 e,
 * 7 v_stop. */
#define MODEL_VARIABLES 8
#define MODEL_STATES 2
#define MODEL_INDICATORS 1
#define MODEL_TOKEN "{hdae-test-bouncing-ball}"
