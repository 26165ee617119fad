// /doc component schemas. Images: an image and each of its sizes, as the reference describes them.

/** `components.schemas.ImageSize`. */
export const IMAGE_SIZE_SCHEMA = {
  type: 'object',
  properties: {
    width: {
      type: 'integer',
      description: 'The image width in pixels in the specified size',
    },
    height: {
      type: 'integer',
      description: 'The image height in pixels in the specified size',
    },
    'mime-type': {
      type: 'string',
      description: 'The image mime-type',
    },
    url: {
      type: 'string',
      format: 'uri',
      description: 'The link to the image in the specified size on the site',
    },
  },
} as const

/** `components.schemas.Image`. */
export const IMAGE_SCHEMA = {
  type: 'object',
  properties: {
    url: {
      type: 'string',
      format: 'uri',
      description: 'The URL to the full size version of the image',
    },
    id: {
      type: 'integer',
      description: 'The image WordPress post ID',
    },
    extension: {
      type: 'string',
      description: 'The image file extension',
    },
    width: {
      type: 'integer',
      description: 'The image natural width in pixels',
    },
    height: {
      type: 'integer',
      description: 'The image natural height in pixels',
    },
    sizes: {
      type: 'array',
      description: 'The details about each size available for the image',
      items: {
        $ref: '#/components/schemas/ImageSize',
      },
    },
  },
} as const
