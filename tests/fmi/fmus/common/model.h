/* The interface between a test model and the FMI functions that serve it (fmi3_model.c,
 * fmi2_model.c): one model source makes an FMU of either version. Each FMU's folder has a
 * config.h with MODEL_VARIABLES (the number of value references, 0 being time),
 * MODEL_STATES, MODEL_INDICATORS and MODEL_TOKEN (the instantiation token or guid of its
 * modelDescription.xml). */
#ifndef HDAE_TEST_FMU_MODEL_H
#define HDAE_TEST_FMU_MODEL_H

#include <stdbool.h>

#include "config.h"

typedef struct {
  double values[MODEL_VARIABLES]; /* by value reference; values[0] is the time */
  int mode;                       /* the model's own discrete state */
  /* What the last initialization or discrete-state update did. */
  bool values_changed;
  bool terminate;
  bool next_event_defined;
  double next_event;
  const char* failure; /* why model_derivatives failed */
  /* Co-Simulation: the importer lets fmi3DoStep end at an event (earlyReturnAllowed), and
   * handles the events in Event Mode (eventModeUsed). */
  bool early_return_allowed;
  bool event_mode_used;
} ModelData;

/* The value references of the states and of their derivatives, in the state vector's order. */
extern const unsigned model_states[MODEL_STATES];
extern const unsigned model_derivatives[MODEL_STATES];

/* Start values of every variable. */
void model_start(ModelData* m);
/* The end of initialization (the discrete-state updates of the start time follow). */
void model_initialize(ModelData* m);
/* The derivatives and outputs at the current time and states; false (with m->failure set)
 * when they cannot be computed. */
bool model_evaluate(ModelData* m);
/* The event indicators (MODEL_INDICATORS of them). */
void model_indicators(const ModelData* m, double z[]);
/* One discrete-state update at the current time. */
void model_event(ModelData* m);
#ifdef MODEL_PARTIALS
/* The partial derivative of the variable `unknown` with respect to the variable `known` (value
 * references) at the current values, for fmi3GetDirectionalDerivative and
 * fmi2GetDirectionalDerivative; 0 where one does not depend on the other. */
double model_partial(ModelData* m, unsigned unknown, unsigned known);
#endif
#ifdef MODEL_STEP_EVENTS
/* After an integrator step (FMI 3.0): true asks the importer for Event Mode, m->terminate set
 * asks it to terminate the simulation. */
bool model_completed_step(ModelData* m);
#endif

#endif
