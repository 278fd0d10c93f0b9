/*
 * FreeRTOSConfig.h -- kernel configuration of the FreeRTOS POSIX example
 * (the simulator port, portable/ThirdParty/GCC/Posix): the application's
 * features (examples/freertos-app/app_config.h), the port's stacks and
 * heap, and, at the end, Sonde's trace macros.
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "app_config.h"

#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configMINIMAL_STACK_SIZE                4096 /* words: pthread stacks */
#define configTOTAL_HEAP_SIZE                   (256 * 1024)
#define configTIMER_TASK_STACK_DEPTH            configMINIMAL_STACK_SIZE

/* The application's own counting hooks, then Sonde's trace macros: the
 * one include that adds Sonde, at the end. */
#include "app_hooks.h"
#include "sonde_freertos.h"

#endif /* FREERTOS_CONFIG_H */
