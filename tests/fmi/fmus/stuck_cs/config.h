/* A Co-Simulation FMU that gets stuck: value references 1 x, 2 der(x), 3 t_stuck, 4 back. */
#define MODEL_VARIABLES 5
#define MODEL_STATES 1
#define MODEL_INDICATORS 0
#define MODEL_TOKEN "{hdae-test-stuck}"
