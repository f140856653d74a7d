/* Van der Pol's oscillator: value references 1 x0, 2 der(x0), 3 x1, 4 der(x1), 5 mu. */
#define MODEL_VARIABLES 6
#define MODEL_STATES 2
#define MODEL_INDICATORS 0
#define MODEL_TOKEN "{hdae-test-van-der-pol}"
#define MODEL_PARTIALS
