/*
 * sonde_freertos_api.h -- V11's API entry and exit hooks (traceENTER_* /
 * traceRETURN_*) as API records (0x1C): a span per call of the kernel
 * functions of sonde_frtos_api.h, with the value they return.  Included by
 * sonde_freertos.h when SONDE_FRTOS_API is 1 (off by default: then none of
 * these is defined and the kernel's empty defaults cost nothing).  As
 * everywhere in sonde_freertos.h, a hook FreeRTOSConfig.h defined itself is
 * left alone.  V10 has no such hooks: nothing is recorded there.
 *
 * One pair of definitions per function of the shared table; the kernel's
 * arguments are not used (variadic: they differ per function).  The
 * return hooks of xQueueAddToSet() and xQueueRemoveFromSet() are
 * sonde_freertos.h's (the member and the set; they end the span too), so
 * their definitions here are skipped.
 */
#ifndef SONDE_FREERTOS_API_H
#define SONDE_FREERTOS_API_H

#include "sonde_frtos_api.h"

#ifndef traceENTER_xQueueGenericSend
#define traceENTER_xQueueGenericSend(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueGenericSend)
#endif
#ifndef traceRETURN_xQueueGenericSend
#define traceRETURN_xQueueGenericSend(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueGenericSend, (r))
#endif
#ifndef traceENTER_xQueueGenericSendFromISR
#define traceENTER_xQueueGenericSendFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueGenericSendFromISR)
#endif
#ifndef traceRETURN_xQueueGenericSendFromISR
#define traceRETURN_xQueueGenericSendFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueGenericSendFromISR, (r))
#endif
#ifndef traceENTER_xQueueGiveFromISR
#define traceENTER_xQueueGiveFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueGiveFromISR)
#endif
#ifndef traceRETURN_xQueueGiveFromISR
#define traceRETURN_xQueueGiveFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueGiveFromISR, (r))
#endif
#ifndef traceENTER_xQueueReceive
#define traceENTER_xQueueReceive(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueReceive)
#endif
#ifndef traceRETURN_xQueueReceive
#define traceRETURN_xQueueReceive(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueReceive, (r))
#endif
#ifndef traceENTER_xQueueReceiveFromISR
#define traceENTER_xQueueReceiveFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueReceiveFromISR)
#endif
#ifndef traceRETURN_xQueueReceiveFromISR
#define traceRETURN_xQueueReceiveFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueReceiveFromISR, (r))
#endif
#ifndef traceENTER_xQueuePeek
#define traceENTER_xQueuePeek(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueuePeek)
#endif
#ifndef traceRETURN_xQueuePeek
#define traceRETURN_xQueuePeek(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueuePeek, (r))
#endif
#ifndef traceENTER_xQueueSemaphoreTake
#define traceENTER_xQueueSemaphoreTake(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueSemaphoreTake)
#endif
#ifndef traceRETURN_xQueueSemaphoreTake
#define traceRETURN_xQueueSemaphoreTake(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueSemaphoreTake, (r))
#endif
#ifndef traceENTER_xQueueTakeMutexRecursive
#define traceENTER_xQueueTakeMutexRecursive(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueTakeMutexRecursive)
#endif
#ifndef traceRETURN_xQueueTakeMutexRecursive
#define traceRETURN_xQueueTakeMutexRecursive(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueTakeMutexRecursive, (r))
#endif
#ifndef traceENTER_xQueueGiveMutexRecursive
#define traceENTER_xQueueGiveMutexRecursive(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueGiveMutexRecursive)
#endif
#ifndef traceRETURN_xQueueGiveMutexRecursive
#define traceRETURN_xQueueGiveMutexRecursive(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueGiveMutexRecursive, (r))
#endif
#ifndef traceENTER_xQueueSelectFromSet
#define traceENTER_xQueueSelectFromSet(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueSelectFromSet)
#endif
#ifndef traceRETURN_xQueueSelectFromSet
#define traceRETURN_xQueueSelectFromSet(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_xQueueSelectFromSet)
#endif
#ifndef traceENTER_xQueueAddToSet
#define traceENTER_xQueueAddToSet(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueAddToSet)
#endif
#ifndef traceRETURN_xQueueAddToSet
#define traceRETURN_xQueueAddToSet(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueAddToSet, (r))
#endif
#ifndef traceENTER_xQueueRemoveFromSet
#define traceENTER_xQueueRemoveFromSet(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueRemoveFromSet)
#endif
#ifndef traceRETURN_xQueueRemoveFromSet
#define traceRETURN_xQueueRemoveFromSet(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueRemoveFromSet, (r))
#endif
#ifndef traceENTER_vTaskDelay
#define traceENTER_vTaskDelay(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_vTaskDelay)
#endif
#ifndef traceRETURN_vTaskDelay
#define traceRETURN_vTaskDelay(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskDelay)
#endif
#ifndef traceENTER_xTaskDelayUntil
#define traceENTER_xTaskDelayUntil(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTaskDelayUntil)
#endif
#ifndef traceRETURN_xTaskDelayUntil
#define traceRETURN_xTaskDelayUntil(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTaskDelayUntil, (r))
#endif
#ifndef traceENTER_xTaskGenericNotify
#define traceENTER_xTaskGenericNotify(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTaskGenericNotify)
#endif
#ifndef traceRETURN_xTaskGenericNotify
#define traceRETURN_xTaskGenericNotify(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTaskGenericNotify, (r))
#endif
#ifndef traceENTER_xTaskGenericNotifyFromISR
#define traceENTER_xTaskGenericNotifyFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTaskGenericNotifyFromISR)
#endif
#ifndef traceRETURN_xTaskGenericNotifyFromISR
#define traceRETURN_xTaskGenericNotifyFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTaskGenericNotifyFromISR, (r))
#endif
#ifndef traceENTER_vTaskGenericNotifyGiveFromISR
#define traceENTER_vTaskGenericNotifyGiveFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_vTaskGenericNotifyGiveFromISR)
#endif
#ifndef traceRETURN_vTaskGenericNotifyGiveFromISR
#define traceRETURN_vTaskGenericNotifyGiveFromISR(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskGenericNotifyGiveFromISR)
#endif
#ifndef traceENTER_ulTaskGenericNotifyTake
#define traceENTER_ulTaskGenericNotifyTake(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_ulTaskGenericNotifyTake)
#endif
#ifndef traceRETURN_ulTaskGenericNotifyTake
#define traceRETURN_ulTaskGenericNotifyTake(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_ulTaskGenericNotifyTake, (r))
#endif
#ifndef traceENTER_xTaskGenericNotifyWait
#define traceENTER_xTaskGenericNotifyWait(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTaskGenericNotifyWait)
#endif
#ifndef traceRETURN_xTaskGenericNotifyWait
#define traceRETURN_xTaskGenericNotifyWait(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTaskGenericNotifyWait, (r))
#endif
#ifndef traceENTER_xEventGroupSetBits
#define traceENTER_xEventGroupSetBits(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xEventGroupSetBits)
#endif
#ifndef traceRETURN_xEventGroupSetBits
#define traceRETURN_xEventGroupSetBits(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xEventGroupSetBits, (r))
#endif
#ifndef traceENTER_xEventGroupWaitBits
#define traceENTER_xEventGroupWaitBits(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xEventGroupWaitBits)
#endif
#ifndef traceRETURN_xEventGroupWaitBits
#define traceRETURN_xEventGroupWaitBits(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xEventGroupWaitBits, (r))
#endif
#ifndef traceENTER_xEventGroupClearBits
#define traceENTER_xEventGroupClearBits(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xEventGroupClearBits)
#endif
#ifndef traceRETURN_xEventGroupClearBits
#define traceRETURN_xEventGroupClearBits(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xEventGroupClearBits, (r))
#endif
#ifndef traceENTER_xEventGroupSync
#define traceENTER_xEventGroupSync(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xEventGroupSync)
#endif
#ifndef traceRETURN_xEventGroupSync
#define traceRETURN_xEventGroupSync(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xEventGroupSync, (r))
#endif
#ifndef traceENTER_xTimerGenericCommandFromTask
#define traceENTER_xTimerGenericCommandFromTask(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTimerGenericCommandFromTask)
#endif
#ifndef traceRETURN_xTimerGenericCommandFromTask
#define traceRETURN_xTimerGenericCommandFromTask(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTimerGenericCommandFromTask, (r))
#endif
#ifndef traceENTER_xTimerGenericCommandFromISR
#define traceENTER_xTimerGenericCommandFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTimerGenericCommandFromISR)
#endif
#ifndef traceRETURN_xTimerGenericCommandFromISR
#define traceRETURN_xTimerGenericCommandFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTimerGenericCommandFromISR, (r))
#endif
#ifndef traceENTER_xTimerPendFunctionCall
#define traceENTER_xTimerPendFunctionCall(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTimerPendFunctionCall)
#endif
#ifndef traceRETURN_xTimerPendFunctionCall
#define traceRETURN_xTimerPendFunctionCall(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTimerPendFunctionCall, (r))
#endif
#ifndef traceENTER_xTimerPendFunctionCallFromISR
#define traceENTER_xTimerPendFunctionCallFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTimerPendFunctionCallFromISR)
#endif
#ifndef traceRETURN_xTimerPendFunctionCallFromISR
#define traceRETURN_xTimerPendFunctionCallFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTimerPendFunctionCallFromISR, (r))
#endif
#ifndef traceENTER_xStreamBufferSend
#define traceENTER_xStreamBufferSend(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xStreamBufferSend)
#endif
#ifndef traceRETURN_xStreamBufferSend
#define traceRETURN_xStreamBufferSend(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xStreamBufferSend, (r))
#endif
#ifndef traceENTER_xStreamBufferReceive
#define traceENTER_xStreamBufferReceive(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xStreamBufferReceive)
#endif
#ifndef traceRETURN_xStreamBufferReceive
#define traceRETURN_xStreamBufferReceive(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xStreamBufferReceive, (r))
#endif
#ifndef traceENTER_vTaskSuspend
#define traceENTER_vTaskSuspend(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_vTaskSuspend)
#endif
#ifndef traceRETURN_vTaskSuspend
#define traceRETURN_vTaskSuspend(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskSuspend)
#endif
#ifndef traceENTER_vTaskResume
#define traceENTER_vTaskResume(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_vTaskResume)
#endif
#ifndef traceRETURN_vTaskResume
#define traceRETURN_vTaskResume(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskResume)
#endif
#ifndef traceENTER_xTaskResumeFromISR
#define traceENTER_xTaskResumeFromISR(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTaskResumeFromISR)
#endif
#ifndef traceRETURN_xTaskResumeFromISR
#define traceRETURN_xTaskResumeFromISR(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTaskResumeFromISR, (r))
#endif
#ifndef traceENTER_vTaskDelete
#define traceENTER_vTaskDelete(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_vTaskDelete)
#endif
#ifndef traceRETURN_vTaskDelete
#define traceRETURN_vTaskDelete(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskDelete)
#endif
#ifndef traceENTER_vTaskPrioritySet
#define traceENTER_vTaskPrioritySet(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_vTaskPrioritySet)
#endif
#ifndef traceRETURN_vTaskPrioritySet
#define traceRETURN_vTaskPrioritySet(...) SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskPrioritySet)
#endif
#ifndef traceENTER_xTaskCreate
#define traceENTER_xTaskCreate(...) SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xTaskCreate)
#endif
#ifndef traceRETURN_xTaskCreate
#define traceRETURN_xTaskCreate(r) SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xTaskCreate, (r))
#endif

#endif /* SONDE_FREERTOS_API_H */
