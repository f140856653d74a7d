/* A stair of time events: value references 1 x, 2 der(x), 3 u. */
#define MODEL_VARIABLES 4
#define MODEL_STATES 1
#define MODEL_INDICATORS 0
#define MODEL_TOKEN "{hdae-test-stair}"
