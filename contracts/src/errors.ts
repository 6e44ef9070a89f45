/**
 * The error catalogue (core §8) plus Charla's additions. Every error response is
 * `{ error: code, message }`; the web translates a known code and shows it for 2 s.
 */
type Entry = { status: number; es: string; pt: string; en: string };

const catalogue = {
  ERR_NO_OTHER_WHATSAPP: {
    status: 400,
    es: "Debe haber al menos una conexión de WhatsApp predeterminada.",
    pt: "Deve haver pelo menos uma conexão padrão do WhatsApp.",
    en: "There must be at least one default WhatsApp connection.",
  },
  ERR_NO_DEF_WAPP_FOUND: {
    status: 404,
    es: "No se encontró una conexión predeterminada.",
    pt: "Nenhuma conexão padrão encontrada.",
    en: "No default connection found.",
  },
  ERR_WAPP_NOT_INITIALIZED: {
    status: 400,
    es: "La conexión no está iniciada.",
    pt: "A conexão não foi iniciada.",
    en: "The connection is not initialised.",
  },
  ERR_WAPP_CHECK_CONTACT: {
    status: 400,
    es: "No se pudo verificar el contacto de WhatsApp.",
    pt: "Não foi possível verificar o contato do WhatsApp.",
    en: "Could not check the WhatsApp contact.",
  },
  ERR_WAPP_INVALID_CONTACT: {
    status: 400,
    es: "Este no es un número de WhatsApp válido.",
    pt: "Este não é um número de WhatsApp válido.",
    en: "This is not a valid WhatsApp number.",
  },
  ERR_WAPP_DOWNLOAD_MEDIA: {
    status: 400,
    es: "No se pudo descargar el archivo de WhatsApp.",
    pt: "Não foi possível baixar a mídia do WhatsApp.",
    en: "Could not download the media from WhatsApp.",
  },
  ERR_INVALID_CREDENTIALS: {
    status: 401,
    es: "Error de autenticación. Por favor, inténtalo de nuevo.",
    pt: "Erro de autenticação. Por favor, tente novamente.",
    en: "Authentication error. Please try again.",
  },
  ERR_SENDING_WAPP_MSG: {
    status: 400,
    es: "Error al enviar el mensaje de WhatsApp.",
    pt: "Erro ao enviar a mensagem do WhatsApp.",
    en: "Error sending the WhatsApp message.",
  },
  ERR_SEND_INTERRUPTED: {
    status: 409,
    es: "El envío se interrumpió antes de llegar a WhatsApp. Reintenta el mensaje.",
    pt: "O envio foi interrompido antes de chegar ao WhatsApp. Tente enviar a mensagem de novo.",
    en: "Sending was interrupted before it reached WhatsApp. Try the message again.",
  },
  ERR_DELETE_WAPP_MSG: {
    status: 400,
    es: "No se pudo eliminar el mensaje de WhatsApp.",
    pt: "Não foi possível excluir a mensagem do WhatsApp.",
    en: "Could not delete the WhatsApp message.",
  },
  ERR_OTHER_OPEN_TICKET: {
    status: 409,
    es: "Ya hay un ticket abierto para este contacto.",
    pt: "Já existe um ticket aberto para este contato.",
    en: "There is already an open ticket for this contact.",
  },
  ERR_SESSION_EXPIRED: {
    status: 401,
    es: "Sesión expirada. Por favor, inicia sesión.",
    pt: "Sessão expirada. Por favor, entre.",
    en: "Session expired. Please log in.",
  },
  ERR_USER_CREATION_DISABLED: {
    status: 403,
    es: "La creación de usuarios fue deshabilitada por el administrador.",
    pt: "A criação de usuários foi desabilitada pelo administrador.",
    en: "User creation has been disabled by the administrator.",
  },
  ERR_NO_PERMISSION: {
    status: 403,
    es: "No tienes permiso para acceder a este recurso.",
    pt: "Você não tem permissão para acessar este recurso.",
    en: "You do not have permission to access this resource.",
  },
  ERR_DUPLICATED_CONTACT: {
    status: 409,
    es: "Ya existe un contacto con este número.",
    pt: "Já existe um contato com este número.",
    en: "A contact with this number already exists.",
  },
  ERR_NO_SETTING_FOUND: {
    status: 404,
    es: "No se encontró ninguna configuración con este ID.",
    pt: "Nenhuma configuração encontrada com este ID.",
    en: "No setting found with this ID.",
  },
  ERR_NO_CONTACT_FOUND: {
    status: 404,
    es: "No se encontró ningún contacto con este ID.",
    pt: "Nenhum contato encontrado com este ID.",
    en: "No contact found with this ID.",
  },
  ERR_NO_TICKET_FOUND: {
    status: 404,
    es: "No se encontró ningún ticket con este ID.",
    pt: "Nenhum ticket encontrado com este ID.",
    en: "No ticket found with this ID.",
  },
  ERR_NO_USER_FOUND: {
    status: 404,
    es: "No se encontró ningún usuario con este ID.",
    pt: "Nenhum usuário encontrado com este ID.",
    en: "No user found with this ID.",
  },
  ERR_NO_WAPP_FOUND: {
    status: 404,
    es: "No se encontró ninguna conexión con este ID.",
    pt: "Nenhuma conexão encontrada com este ID.",
    en: "No connection found with this ID.",
  },
  /**
   * Never raised, kept for clients that translate it: a message is recorded before it is sent
   * (docs/acks.md), so a send that fails stays in the conversation marked failed (ack -1 with
   * ERR_SENDING_WAPP_MSG), and a failure to record it is a database fault, answered ERR_INTERNAL
   * (logged with the request id) or ERR_QUERY_TIMEOUT.
   */
  ERR_CREATING_MESSAGE: {
    status: 500,
    es: "Error al crear el mensaje en la base de datos.",
    pt: "Erro ao criar a mensagem no banco de dados.",
    en: "Error creating the message.",
  },
  /** A new ticket that lost a race for the contact's one open ticket, when no such ticket can be named (tickets/service.ts). */
  ERR_CREATING_TICKET: {
    status: 500,
    es: "Error al crear el ticket en la base de datos.",
    pt: "Erro ao criar o ticket no banco de dados.",
    en: "Error creating the ticket.",
  },
  /** Deleting for everyone a message older than WhatsApp allows (about 60 hours): the phone would keep it. */
  ERR_FETCH_WAPP_MSG: {
    status: 400,
    es: "Error al obtener el mensaje de WhatsApp; quizá es demasiado antiguo.",
    pt: "Erro ao buscar a mensagem do WhatsApp; talvez seja muito antiga.",
    en: "Error fetching the WhatsApp message; it may be too old.",
  },
  ERR_QUEUE_COLOR_ALREADY_EXISTS: {
    status: 409,
    es: "Este color ya está en uso, elige otro.",
    pt: "Esta cor já está em uso, escolha outra.",
    en: "This colour is already in use, pick another.",
  },
  ERR_WAPP_GREETING_REQUIRED: {
    status: 400,
    es: "El mensaje de saludo es obligatorio cuando hay más de un área.",
    pt: "A saudação é obrigatória quando há mais de uma fila.",
    en: "A greeting is required when there is more than one queue.",
  },
  // Charla's additions
  ERR_VALIDATION: {
    status: 400,
    es: "Revisa los datos enviados.",
    pt: "Verifique os dados enviados.",
    en: "Check the data you sent.",
  },
  ERR_BAD_REQUEST: { status: 400, es: "Solicitud mal formada.", pt: "Requisição malformada.", en: "Malformed request." },
  ERR_PAYLOAD_TOO_LARGE: {
    status: 413,
    es: "La solicitud es demasiado grande.",
    pt: "A requisição é muito grande.",
    en: "The request is too large.",
  },
  ERR_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    es: "Formato de solicitud no soportado.",
    pt: "Formato de requisição não suportado.",
    en: "Unsupported request format.",
  },
  ERR_NOT_FOUND: { status: 404, es: "No encontrado.", pt: "Não encontrado.", en: "Not found." },
  ERR_INTERNAL: {
    status: 500,
    es: "Ocurrió un error inesperado.",
    pt: "Ocorreu um erro inesperado.",
    en: "An unexpected error occurred.",
  },
  ERR_TOKEN_EXPIRED: {
    status: 403,
    es: "Tu sesión debe renovarse.",
    pt: "Sua sessão precisa ser renovada.",
    en: "Your session must be renewed.",
  },
  ERR_RATE_LIMITED: {
    status: 429,
    es: "Demasiados intentos. Espera un momento e inténtalo de nuevo.",
    pt: "Muitas tentativas. Aguarde um momento e tente novamente.",
    en: "Too many attempts. Wait a moment and try again.",
  },
  ERR_SUBSCRIPTION_EXPIRED: {
    status: 401,
    es: "¡Ups! Tu suscripción venció el {{date}}. Contacta al soporte para más información.",
    pt: "Opss! Sua assinatura venceu em {{date}}. Entre em contato com o suporte para mais informações.",
    en: "Oops! Your subscription expired on {{date}}. Contact support for more information.",
  },
  ERR_COMPANY_INACTIVE: {
    status: 401,
    es: "La empresa está deshabilitada. Contacta al soporte.",
    pt: "A empresa está desativada. Entre em contato com o suporte.",
    en: "The company is disabled. Contact support.",
  },
  ERR_EMAIL_ALREADY_EXISTS: {
    status: 409,
    es: "Ya existe un usuario con este correo electrónico.",
    pt: "Já existe um usuário com este e-mail.",
    en: "A user with this email already exists.",
  },
  ERR_CONNECTION_LIMIT_REACHED: {
    status: 403,
    es: "Se alcanzó el número de conexiones del plan.",
    pt: "O número de conexões do plano foi atingido.",
    en: "The plan's connection limit has been reached.",
  },
  ERR_USER_LIMIT_REACHED: {
    status: 403,
    es: "Se alcanzó el número de usuarios del plan.",
    pt: "O número de usuários do plano foi atingido.",
    en: "The plan's user limit has been reached.",
  },
  ERR_NO_COMPANY_FOUND: {
    status: 404,
    es: "No se encontró la empresa.",
    pt: "Empresa não encontrada.",
    en: "Company not found.",
  },
  ERR_COMPANY_NAME_EXISTS: {
    status: 409,
    es: "Ya existe una empresa con este nombre.",
    pt: "Já existe uma empresa com este nome.",
    en: "A company with this name already exists.",
  },
  ERR_NO_PLAN_FOUND: { status: 404, es: "No se encontró el plan.", pt: "Plano não encontrado.", en: "Plan not found." },
  ERR_PLAN_NAME_EXISTS: {
    status: 409,
    es: "Ya existe un plan con este nombre.",
    pt: "Já existe um plano com este nome.",
    en: "A plan with this name already exists.",
  },
  ERR_PLAN_IN_USE: {
    status: 409,
    es: "El plan está en uso por alguna empresa.",
    pt: "O plano está em uso por alguma empresa.",
    en: "The plan is used by a company.",
  },
  ERR_MAIN_COMPANY: {
    status: 400,
    es: "La empresa principal no se puede eliminar.",
    pt: "A empresa principal não pode ser excluída.",
    en: "The main company cannot be deleted.",
  },
  ERR_CANNOT_DELETE_SELF: {
    status: 400,
    es: "No puedes eliminar tu propio usuario.",
    pt: "Você não pode excluir seu próprio usuário.",
    en: "You cannot delete your own user.",
  },
  ERR_LAST_SUPER: {
    status: 400,
    es: "Debe quedar al menos un super administrador.",
    pt: "Deve restar pelo menos um super administrador.",
    en: "At least one super administrator must remain.",
  },
  ERR_INVALID_FILE_TYPE: {
    status: 400,
    es: "Tipo de archivo no permitido.",
    pt: "Tipo de arquivo não permitido.",
    en: "File type not allowed.",
  },
  ERR_FILE_TOO_LARGE: {
    status: 413,
    es: "El archivo es demasiado grande.",
    pt: "O arquivo é muito grande.",
    en: "The file is too large.",
  },
  /** A multipart body that ends before its file does (a cut connection, a broken client). */
  ERR_UPLOAD_INCOMPLETE: {
    status: 400,
    es: "El archivo llegó incompleto. Vuelve a enviarlo.",
    pt: "O arquivo chegou incompleto. Envie-o novamente.",
    en: "The file arrived incomplete. Send it again.",
  },
  ERR_WAPP_NOT_SIMULATOR: {
    status: 400,
    es: "Esta conexión no es el simulador.",
    pt: "Esta conexão não é o simulador.",
    en: "This connection is not the simulator.",
  },
  ERR_NO_QUEUE_FOUND: { status: 404, es: "No se encontró el área.", pt: "Fila não encontrada.", en: "Area not found." },
  ERR_NO_QUEUE_OPTION_FOUND: {
    status: 404,
    es: "No se encontró la opción del área.",
    pt: "Opção da fila não encontrada.",
    en: "Area option not found.",
  },
  ERR_QUEUE_NAME_ALREADY_EXISTS: {
    status: 409,
    es: "Ya existe un área con este nombre.",
    pt: "Já existe uma fila com este nome.",
    en: "An area with this name already exists.",
  },
  ERR_QUEUE_LIMIT_REACHED: {
    status: 403,
    es: "Se alcanzó el número de áreas del plan.",
    pt: "O número de filas do plano foi atingido.",
    en: "The plan's area limit has been reached.",
  },
  ERR_INVALID_SETTING_VALUE: {
    status: 400,
    es: "Valor no permitido para esta configuración.",
    pt: "Valor não permitido para esta configuração.",
    en: "Value not allowed for this setting.",
  },
  ERR_TICKET_ALREADY_ACCEPTED: {
    status: 409,
    es: "Este ticket ya fue aceptado por {{userName}}.",
    pt: "Este ticket já foi aceito por {{userName}}.",
    en: "This ticket was already accepted by {{userName}}.",
  },
  ERR_INVALID_TRANSITION: {
    status: 400,
    es: "El ticket no puede pasar a ese estado.",
    pt: "O ticket não pode passar para esse status.",
    en: "The ticket cannot move to that status.",
  },
  ERR_TICKET_STATUS_CHANGED: {
    status: 409,
    es: "El ticket cambió de estado mientras tanto; se muestra como está ahora.",
    pt: "O ticket mudou de status enquanto isso; ele é mostrado como está agora.",
    en: "The ticket changed status meanwhile; it is shown as it is now.",
  },
  ERR_TICKET_NOT_OPEN: {
    status: 409,
    es: "Acepta o reabre el ticket antes de enviar mensajes.",
    pt: "Aceite ou reabra o ticket antes de enviar mensagens.",
    en: "Accept or reopen the ticket before sending messages.",
  },
  /** An agent acting on a ticket the chatbot still serves (contracts/chatbot-hold.ts): staff may take over, agents wait. */
  ERR_TICKET_IN_CHATBOT: {
    status: 409,
    es: "El bot está atendiendo este ticket; podrás aceptarlo cuando termine.",
    pt: "O bot está atendendo este ticket; você poderá aceitá-lo quando ele terminar.",
    en: "The bot is serving this ticket; you can accept it once it is done.",
  },
  ERR_NO_MESSAGE_FOUND: {
    status: 404,
    es: "No se encontró el mensaje.",
    pt: "Mensagem não encontrada.",
    en: "Message not found.",
  },
  ERR_NO_NOTE_FOUND: { status: 404, es: "No se encontró la nota.", pt: "Nota não encontrada.", en: "Note not found." },
  ERR_NO_TAG_FOUND: { status: 404, es: "No se encontró la etiqueta.", pt: "Tag não encontrada.", en: "Tag not found." },
  ERR_NO_CONTACT_LIST_FOUND: {
    status: 404,
    es: "No se encontró la lista de contactos.",
    pt: "Lista de contatos não encontrada.",
    en: "Contact list not found.",
  },
  ERR_NO_CONTACT_LIST_ITEM_FOUND: {
    status: 404,
    es: "No se encontró el contacto de la lista.",
    pt: "Contato da lista não encontrado.",
    en: "Contact list entry not found.",
  },
  ERR_CONTACT_LIST_ITEM_EXISTS: {
    status: 409,
    es: "Este número ya está en la lista.",
    pt: "Este número já está na lista.",
    en: "This number is already on the list.",
  },
  ERR_IMPORT_FORMAT: {
    status: 400,
    es: "Usa una hoja de cálculo .xlsx, .xls o .csv con las columnas nombre, número y email.",
    pt: "Use uma planilha .xlsx, .xls ou .csv com as colunas nome, número e email.",
    en: "Use an .xlsx, .xls or .csv spreadsheet with the columns name, number and email.",
  },
  ERR_IMPORT_NO_NUMBER_COLUMN: {
    status: 400,
    es: "La hoja no tiene una columna de número (número, numero, telefono, number, phone).",
    pt: "A planilha não tem uma coluna de número (número, numero, telefone, number, phone).",
    en: "The sheet has no number column (number, phone, número, numero, telefono).",
  },
  ERR_IMPORT_TOO_MANY_ROWS: {
    status: 413,
    es: "La hoja tiene demasiadas filas (máximo 50.000).",
    pt: "A planilha tem linhas demais (máximo 50.000).",
    en: "The sheet has too many rows (at most 50,000).",
  },
  ERR_IMPORT_FIELD_TOO_LONG: {
    status: 400,
    es: "La fila {{row}} tiene un campo de más de 32.767 caracteres, más de lo que cabe en una celda: revisa que el archivo sea una hoja de contactos.",
    pt: "A linha {{row}} tem um campo com mais de 32.767 caracteres, mais do que cabe em uma célula: verifique se o arquivo é uma planilha de contatos.",
    en: "Row {{row}} has a field longer than 32,767 characters, more than a cell holds: check that the file is a contact sheet.",
  },
  /** An .xlsx that unpacks to more than a sheet within the limits holds (a zip bomb), however few rows it has. */
  ERR_IMPORT_TOO_LARGE: {
    status: 413,
    es: "El archivo guarda más datos de los que cabe en una hoja de contactos (hasta 50.000 filas): revisa que sea el archivo correcto.",
    pt: "O arquivo guarda mais dados do que cabe em uma planilha de contatos (até 50.000 linhas): verifique se é o arquivo certo.",
    en: "The file holds more data than a contact sheet can (up to 50,000 rows): check that it is the right file.",
  },
  /** Imports are read one at a time per company, and a few at a time per server: reading a sheet is CPU others share. */
  ERR_IMPORT_BUSY: {
    status: 429,
    es: "Hay otra importación en curso. Espera a que termine e inténtalo de nuevo.",
    pt: "Há outra importação em andamento. Aguarde ela terminar e tente novamente.",
    en: "Another import is running. Wait for it to finish and try again.",
  },
  ERR_NO_CAMPAIGN_FOUND: {
    status: 404,
    es: "No se encontró la campaña.",
    pt: "Campanha não encontrada.",
    en: "Campaign not found.",
  },
  ERR_CAMPAIGN_NOT_EDITABLE: {
    status: 409,
    es: "La campaña ya no se puede editar: solo inactiva, o programada con más de 1 hora de anticipación.",
    pt: "A campanha não pode mais ser editada: só inativa, ou programada com mais de 1 hora de antecedência.",
    en: "The campaign can no longer be edited: only when inactive, or scheduled more than 1 hour ahead.",
  },
  ERR_CAMPAIGN_INVALID_TRANSITION: {
    status: 409,
    es: "La campaña no puede pasar a ese estado.",
    pt: "A campanha não pode passar para esse status.",
    en: "The campaign cannot move to that status.",
  },
  ERR_CAMPAIGN_RUNNING: {
    status: 409,
    es: "Cancela la campaña antes de eliminarla.",
    pt: "Cancele a campanha antes de excluí-la.",
    en: "Cancel the campaign before deleting it.",
  },
  ERR_NO_FILE_LIST_OPTION_FOUND: {
    status: 404,
    es: "No se encontró la opción de la lista de archivos.",
    pt: "Opção da lista de arquivos não encontrada.",
    en: "File list option not found.",
  },
  ERR_NO_FILE_LIST_FOUND: {
    status: 404,
    es: "No se encontró la lista de archivos.",
    pt: "Lista de arquivos não encontrada.",
    en: "File list not found.",
  },
  ERR_TAG_NAME_EXISTS: {
    status: 409,
    es: "Ya existe una etiqueta con este nombre.",
    pt: "Já existe uma tag com este nome.",
    en: "A tag with this name already exists.",
  },
  ERR_QUEUE_NOT_ALLOWED: {
    status: 403,
    es: "Solo puedes abrir tickets en tus propias áreas.",
    pt: "Você só pode abrir tickets nas suas próprias filas.",
    en: "You can only open tickets in your own areas.",
  },
  ERR_WRONG_PASSWORD: {
    status: 400,
    es: "La contraseña actual no es correcta.",
    pt: "A senha atual não está correta.",
    en: "The current password is not correct.",
  },
  ERR_INVALID_TEXT: {
    status: 400,
    es: "El texto contiene caracteres no válidos.",
    pt: "O texto contém caracteres inválidos.",
    en: "The text contains characters that are not allowed.",
  },
  ERR_STORAGE_QUOTA: {
    status: 413,
    es: "La empresa alcanzó su límite de almacenamiento de archivos.",
    pt: "A empresa atingiu o limite de armazenamento de arquivos.",
    en: "The company has reached its file storage limit.",
  },
  /** core §5: the dashboard needs days, date_from or date_to. */
  ERR_DASHBOARD_FILTER: {
    status: 400,
    es: "Parametrize o filtro",
    pt: "Parametrize o filtro",
    en: "Set the filter",
  },
  /** issue 28: a schedule a node is sending right now cannot change or go. */
  ERR_SCHEDULE_SENDING: {
    status: 409,
    es: "El agendamiento se está enviando en este momento; no se puede cambiar ni eliminar.",
    pt: "O agendamento está sendo enviado agora; não pode ser alterado nem excluído.",
    en: "The schedule is being sent right now; it cannot be changed or deleted.",
  },
  /** issue 28: a sent schedule is history; a new one is made instead. */
  ERR_SCHEDULE_SENT: {
    status: 409,
    es: "El agendamiento ya fue enviado; no se puede cambiar.",
    pt: "O agendamento já foi enviado; não pode ser alterado.",
    en: "The schedule was already sent; it cannot be changed.",
  },
  /** issue 28: a new or changed schedule must be for a time still to come. */
  ERR_SCHEDULE_PAST: {
    status: 400,
    es: "La fecha y hora del agendamiento ya pasaron.",
    pt: "A data e hora do agendamento já passaram.",
    en: "The schedule's date and time are already past.",
  },
  /** issue 28: a schedule whose contact or connection is gone or was never the company's. */
  ERR_SCHEDULE_NOT_FOUND: {
    status: 404,
    es: "Agendamiento no encontrado.",
    pt: "Agendamento não encontrado.",
    en: "Schedule not found.",
  },
  /** issue 29: an invoice not of the caller's company (or none), as any foreign id. */
  ERR_INVOICE_NOT_FOUND: {
    status: 404,
    es: "No se encontró la factura.",
    pt: "Fatura não encontrada.",
    en: "Invoice not found.",
  },
  /** issue 29: a paid invoice is not charged again. */
  ERR_INVOICE_PAID: {
    status: 409,
    es: "Esta factura ya está pagada.",
    pt: "Esta fatura já está paga.",
    en: "This invoice is already paid.",
  },
  /** issue 29: no payment provider configured on this server (PIX_KEY, PIX_MERCHANT_NAME, PIX_MERCHANT_CITY). */
  ERR_PAYMENTS_NOT_CONFIGURED: {
    status: 503,
    es: "Los pagos no están configurados en este servidor. Contacta al soporte.",
    pt: "Os pagamentos não estão configurados neste servidor. Entre em contato com o suporte.",
    en: "Payments are not configured on this server. Contact support.",
  },
  /** issue 29: a payment confirmation without a valid, current signature (forged, unsigned or stale). */
  ERR_WEBHOOK_SIGNATURE: {
    status: 401,
    es: "Firma del webhook inválida o vencida.",
    pt: "Assinatura do webhook inválida ou expirada.",
    en: "Invalid or expired webhook signature.",
  },
  /** issue 29: the receiving end of payment confirmations has no secret (PAYMENT_WEBHOOK_SECRET). */
  ERR_WEBHOOK_NOT_CONFIGURED: {
    status: 503,
    es: "El webhook de pagos no está configurado en este servidor.",
    pt: "O webhook de pagamentos não está configurado neste servidor.",
    en: "The payment webhook is not configured on this server.",
  },
  ERR_QUERY_TIMEOUT: {
    status: 503,
    es: "La consulta tardó demasiado. Afina la búsqueda e inténtalo de nuevo.",
    pt: "A consulta demorou demais. Refine a busca e tente novamente.",
    en: "The query took too long. Narrow the search and try again.",
  },
  ERR_NO_PROMPT_FOUND: {
    status: 404,
    es: "No se encontró el prompt.",
    pt: "Prompt não encontrado.",
    en: "Prompt not found.",
  },
  ERR_NO_INTEGRATION_FOUND: {
    status: 404,
    es: "No se encontró la integración.",
    pt: "Integração não encontrada.",
    en: "Integration not found.",
  },
  ERR_INTEGRATION_NAME_EXISTS: {
    status: 409,
    es: "Ya existe una integración con este nombre.",
    pt: "Já existe uma integração com este nome.",
    en: "An integration with this name already exists.",
  },
  ERR_INTEGRATION_IN_USE: {
    status: 409,
    es: "La integración está en uso por un área, una opción o una conexión.",
    pt: "A integração está em uso por um setor, uma opção ou uma conexão.",
    en: "The integration is used by an area, an option or a connection.",
  },
  ERR_INTEGRATION_NOT_DELIVERABLE: {
    status: 400,
    es: "Este tipo de integración no recibe eventos.",
    pt: "Este tipo de integração não recebe eventos.",
    en: "This kind of integration receives no events.",
  },
  ERR_CLOUD_WINDOW_CLOSED: {
    status: 409,
    es: "La ventana de 24 horas de este cliente está cerrada: solo puedes enviarle una plantilla aprobada.",
    pt: "A janela de 24 horas deste cliente está fechada: só é possível enviar um modelo aprovado.",
    en: "This customer's 24-hour window is closed: only an approved template can be sent.",
  },
  ERR_CLOUD_TEXT_TOO_LONG: {
    status: 400,
    es: "WhatsApp Cloud API acepta hasta {{max}} caracteres en este mensaje: acórtalo o divídelo.",
    pt: "O WhatsApp Cloud API aceita até {{max}} caracteres nesta mensagem: encurte-a ou divida-a.",
    en: "The WhatsApp Cloud API takes at most {{max}} characters in this message: shorten or split it.",
  },
  ERR_CLOUD_NOT_A_CLOUD_CONNECTION: {
    status: 400,
    es: "Esta conexión no usa la API oficial de WhatsApp (Cloud API).",
    pt: "Esta conexão não usa a API oficial do WhatsApp (Cloud API).",
    en: "This connection does not use the official WhatsApp Cloud API.",
  },
  ERR_CLOUD_TEMPLATE_NOT_FOUND: {
    status: 404,
    es: "No se encontró una plantilla aprobada con ese nombre e idioma.",
    pt: "Nenhum modelo aprovado com esse nome e idioma foi encontrado.",
    en: "No approved template with that name and language was found.",
  },
  ERR_CLOUD_TEMPLATE_UNSUPPORTED: {
    status: 400,
    es: "Esta plantilla lleva un encabezado con archivo o variables, o un botón con variables: Charla solo envía plantillas con variables en el cuerpo.",
    pt: "Este modelo tem um cabeçalho com arquivo ou variáveis, ou um botão com variáveis: o Charla só envia modelos com variáveis no corpo.",
    en: "This template has a header with a file or variables, or a button with variables: Charla sends templates with body variables only.",
  },
  ERR_CLOUD_TEMPLATE_PARAMS: {
    status: 400,
    es: "La plantilla necesita {{count}} variables.",
    pt: "O modelo precisa de {{count}} variáveis.",
    en: "The template takes {{count}} variables.",
  },
  ERR_CLOUD_SIGNATURE: {
    status: 401,
    es: "Firma del webhook ausente o inválida.",
    pt: "Assinatura do webhook ausente ou inválida.",
    en: "The webhook's signature is missing or invalid.",
  },
  ERR_CLOUD_VERIFY_TOKEN: {
    status: 403,
    es: "El token de verificación del webhook no coincide.",
    pt: "O token de verificação do webhook não confere.",
    en: "The webhook's verify token does not match.",
  },
  ERR_CLOUD_AUTH: {
    status: 502,
    es: "WhatsApp rechazó el token de acceso de la conexión: genera uno nuevo en Meta y guárdalo en la conexión.",
    pt: "O WhatsApp recusou o token de acesso da conexão: gere um novo na Meta e salve-o na conexão.",
    en: "WhatsApp refused the connection's access token: create a new one in Meta and save it on the connection.",
  },
  ERR_CLOUD_REENGAGEMENT: {
    status: 409,
    es: "Pasaron más de 24 horas desde el último mensaje del cliente: envía una plantilla.",
    pt: "Passaram mais de 24 horas desde a última mensagem do cliente: envie um modelo.",
    en: "More than 24 hours have passed since the customer's last message: send a template.",
  },
  ERR_CLOUD_UNDELIVERABLE: {
    status: 502,
    es: "WhatsApp no pudo entregar el mensaje a este número.",
    pt: "O WhatsApp não conseguiu entregar a mensagem a este número.",
    en: "WhatsApp could not deliver the message to this number.",
  },
  ERR_CLOUD_RATE_LIMITED: {
    status: 429,
    es: "WhatsApp limitó los envíos de esta conexión; se volverá a intentar.",
    pt: "O WhatsApp limitou os envios desta conexão; será tentado novamente.",
    en: "WhatsApp is limiting this connection's sends; it will be tried again.",
  },
  ERR_CLOUD_MEDIA: {
    status: 502,
    es: "WhatsApp no aceptó el archivo (tipo o tamaño no admitidos).",
    pt: "O WhatsApp não aceitou o arquivo (tipo ou tamanho não suportado).",
    en: "WhatsApp did not accept the file (unsupported type or size).",
  },
  ERR_CLOUD_TEMPLATE_REJECTED: {
    status: 502,
    es: "WhatsApp rechazó la plantilla (no existe, no está aprobada o sus variables no coinciden).",
    pt: "O WhatsApp recusou o modelo (não existe, não está aprovado ou as variáveis não conferem).",
    en: "WhatsApp refused the template (missing, not approved, or its variables do not match).",
  },
  ERR_CLOUD_API: {
    status: 502,
    es: "La API de WhatsApp rechazó la solicitud: {{reason}}",
    pt: "A API do WhatsApp recusou a solicitação: {{reason}}",
    en: "The WhatsApp API refused the request: {{reason}}",
  },
  ERR_URL_NOT_ALLOWED: {
    status: 400,
    es: "Esta dirección no está permitida: usa una dirección pública http(s).",
    pt: "Este endereço não é permitido: use um endereço público http(s).",
    en: "This address is not allowed: use a public http(s) address.",
  },
  ERR_AI_PROVIDER: {
    status: 502,
    es: "El servicio de IA no respondió correctamente: {{reason}}",
    pt: "O serviço de IA não respondeu corretamente: {{reason}}",
    en: "The AI service did not answer properly: {{reason}}",
  },
  ERR_AI_NOT_CONFIGURED: {
    status: 400,
    es: "Falta la clave de API del servicio de IA.",
    pt: "Falta a chave de API do serviço de IA.",
    en: "The AI service's API key is missing.",
  },
  ERR_API_TOKEN_INVALID: {
    status: 401,
    es: "Token de API inválido. Cópialo de nuevo desde Conexiones.",
    pt: "Token de API inválido. Copie-o novamente em Conexões.",
    en: "Invalid API token. Copy it again from Connections.",
  },
  ERR_EXTERNAL_API_DISABLED: {
    status: 403,
    es: "El plan de esta empresa no incluye la API externa.",
    pt: "O plano desta empresa não inclui a API externa.",
    en: "This company's plan does not include the external API.",
  },
  ERR_IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    es: "Una solicitud con la misma clave de idempotencia aún se está procesando.",
    pt: "Uma solicitação com a mesma chave de idempotência ainda está em processamento.",
    en: "A request with the same idempotency key is still being processed.",
  },
} satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof catalogue;
export const ErrorCatalogue: Record<ErrorCode, Entry> = catalogue;
export const errorCodes = Object.keys(catalogue) as ErrorCode[];

/** Fills `{{name}}` placeholders of a catalogue text with the error's data. */
export function fillErrorText(text: string, data?: Record<string, unknown>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(data?.[k] ?? ""));
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(catalogue, value);
}

/** Body of every error response. `issues` lists zod paths for ERR_VALIDATION. */
export type ErrorBody = {
  error: ErrorCode;
  message: string;
  issues?: { path: string; message: string }[];
  /** Extra facts for the client, e.g. the due date of an expired subscription. */
  data?: Record<string, unknown>;
};
