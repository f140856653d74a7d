/* A decay with a parameter and an input: value references 1 x, 2 der(x), 3 k, 4 u, 5 y. */
#define MODEL_VARIABLES 6
#define MODEL_STATES 1
#define MODEL_INDICATORS 0
#define MODEL_TOKEN "{hdae-test-decay}"
